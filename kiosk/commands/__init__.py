"""One module per `azar-kiosk` sub-command; each exposes `add_parser(subparsers)`.

A command module sets `func` on its parser with `set_defaults(func=...)`; the function takes
the parsed arguments and returns the process exit code.
"""
