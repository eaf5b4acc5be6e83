"""Admissible lower bounds on what is left: pairs of boxes, goal rooms, forced walking."""
