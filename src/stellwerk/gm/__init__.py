"""The game master for play by e-mail: orders in, checks, reports with the map out.

``stellwerk.gm.report`` builds each player's report (Auswertung) and its e-mail;
``stellwerk.gm.mail`` reads order mails (Maildir, IMAP), sends reports (SMTP, an outbox
folder) and knows from the GM configuration which address belongs to which player.
"""
