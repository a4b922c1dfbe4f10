"""The state and the rules' data: the state arrays, the rules tables, the tunable numbers, the random streams, the action table."""
