"""``python -m bidbox`` runs the command line."""

import sys

from bidbox.cli.main import main

sys.exit(main())
