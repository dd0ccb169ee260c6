"""The rules engine: pure Python, shared by the site, `manage.py replay` and the tests."""
