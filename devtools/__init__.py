"""Development tools, not part of the installed package: the test runner behind
`python3 dev.py test` and the simulated Swiss events used by tests and benchmarks."""
