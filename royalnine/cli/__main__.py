"""``python -m royalnine.cli``: the same as the ``royalnine`` command."""

import sys

from royalnine.cli import main

sys.exit(main())
