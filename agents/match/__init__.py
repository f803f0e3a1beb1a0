"""The one turn loop and what surrounds a match: seats, records, resuming, the pool many matches run in."""
