"""The pull tables: exact pushes left near the goal, by breadth-first search over pulls, in a dict or compact 64-bit blocks, grown in this process or another."""
