"""Positions no plan can solve, and pushes that can wait: deadlocks, PI-corrals, tunnels, corral probes."""
