"""Files on disk: atomic writes, bounded reads, player files, user code."""
