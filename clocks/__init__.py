"""Time controls and clock arithmetic (pure: `now` is an argument, durations are integer
milliseconds), and the clock's state as a model. It knows games only through the services
that call it."""
