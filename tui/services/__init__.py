"""Plain-Python services the app and command line share: saved progress, the catalog of packs, hints, level summaries."""
