"""The ``tk20`` command line: the outer shell, holding no rules."""
