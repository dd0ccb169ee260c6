"""The rules: a pure-Python engine (no Django import), setups as data, role modules."""
