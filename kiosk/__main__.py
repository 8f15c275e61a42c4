"""`python -m kiosk` runs the same command line as `azar-kiosk`."""

import sys

from kiosk.cli import main

sys.exit(main())
