"""Tests for the deployment: the systemd unit, the notify protocol, the Pi installer."""
