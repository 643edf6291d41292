"""The one piece of distutils that the Exphormer reference imports (distutils.version.
LooseVersion, in graphgps/layer/performer_layer.py and performer_pytorch), for a Python
(3.12+) that has neither distutils nor setuptools' copy of it. The harness puts this
folder at the end of sys.path, so that any real distutils comes first."""
