"""The kiosk's screens: layout that scales from 800x480 to 1920x1080, drawing helpers, scenes."""
