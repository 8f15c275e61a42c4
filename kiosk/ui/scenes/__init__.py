"""Every screen of the kiosk, by name."""

from kiosk.ui.scenes.attract import Attract
from kiosk.ui.scenes.choose import Choose
from kiosk.ui.scenes.language import Language
from kiosk.ui.scenes.maintenance import Maintenance
from kiosk.ui.scenes.play import Play
from kiosk.ui.scenes.result import Result
from kiosk.ui.scenes.rules import Rules

SCENES = {
    scene.name: scene for scene in (Attract, Language, Choose, Play, Result, Rules, Maintenance)
}
