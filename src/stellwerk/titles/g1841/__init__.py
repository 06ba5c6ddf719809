"""1841 (Northern Italy): title data, map and routes; the game flow comes later."""
