"""`python3 -m kbenchpy`: see kbenchpy.cli."""
import sys

from .cli import main

sys.exit(main())
