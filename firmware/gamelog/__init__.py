"""The game log: every game the table referees, enters or imports, kept in SQLite."""
