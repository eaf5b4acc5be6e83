"""Plans found without a proof, and plans reshaped: goal-room packing order, pushes interleaved for shorter walks, one box routed to a cell."""
