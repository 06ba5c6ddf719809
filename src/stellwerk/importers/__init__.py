"""Importers of other programs' records that replay them through the public API
(``stellwerk.api``): above the API in the layers, so they may build games with it.

``rails``: a Rails 1835 game report (its parser is ``stellwerk.io.rails_report``) turned into
an 18xx.games game file by playing it in an 1835 game.
"""
