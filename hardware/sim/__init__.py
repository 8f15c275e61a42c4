"""A simulated dice tray: a camera whose frames show three thrown dice (demo mode and tests)."""

from hardware.sim.throw import Hazard
from hardware.sim.tray import SimulatedTray

__all__ = ["Hazard", "SimulatedTray"]
