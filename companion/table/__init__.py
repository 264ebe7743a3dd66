"""The live table: the journaled game session, undo, the table interpreter and ``companion play``.

Import the heavy pieces from their modules (``companion.table.session``); this package's
``__init__`` stays light so that ``companion replay`` never pays for it.
"""
