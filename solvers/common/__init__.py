"""Family-neutral search helpers: budgets and cancellation (control), the Solution type, generic BFS/A*/IDA*, the assignment, state tables, memory accounting and child processes."""
