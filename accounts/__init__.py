"""People: accounts with email and password, and guests who have neither."""
