import json
import sys

event = json.load(sys.stdin)
print("tests are failing", file=sys.stderr)
sys.exit(2)
