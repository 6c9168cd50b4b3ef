"""Gantry demo: a python script. It prints a few facts about the machine it runs on."""
import platform
import sys

print("Hello from the Gantry demo project!")
print(f"Python {platform.python_version()} on {platform.system()} {platform.release()}")
for argument in sys.argv[1:]:
    print(f"argument: {argument}")
print("Python demo finished.")
