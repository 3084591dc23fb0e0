"""Other projects' test suites, vendored with their licenses, and the harnesses that run
them on our backends."""
