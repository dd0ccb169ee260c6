"""The Il Ribelle! desk (BANG!)."""
