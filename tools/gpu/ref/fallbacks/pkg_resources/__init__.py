"""The two names of pkg_resources that torchmetrics 0.9.3 imports (utilities/imports.py:
DistributionNotFound, get_distribution), on importlib.metadata, for an environment
whose setuptools (82 and later) no longer ships pkg_resources. The harness puts this
folder at the end of sys.path, so that any real pkg_resources comes first."""
import importlib.metadata


class DistributionNotFound(Exception):
    """No installed distribution has the name asked for."""


class _Distribution:
    def __init__(self, name, version):
        self.project_name = name
        self.version = version


def get_distribution(name):
    """The installed distribution called name (its project_name and version)."""
    try:
        return _Distribution(name, importlib.metadata.version(name))
    except importlib.metadata.PackageNotFoundError as e:
        raise DistributionNotFound(name) from e
