"""The experiments, one module each: a function run(args, out) registered
under its name with @register. EXPERIMENTS holds them in the order of
ORDER, which is the order of the command line's choices and of `all`."""

import importlib

ORDER = ("paper", "tuning", "overhead", "hotpath", "sizes", "wiki", "codecs",
         "profile", "readmix", "contention", "partitions")
_REGISTERED = {}


def register(name):
    """Decorator: the experiment called name on the command line."""
    def add(fn):
        if name in _REGISTERED:
            raise ValueError("experiment %s registered twice" % name)
        _REGISTERED[name] = fn
        return fn
    return add


# Each module registers its experiment when imported (a module may import
# another's helpers first: the order comes from ORDER, not from imports).
for _name in ORDER:
    importlib.import_module("." + _name, __name__)
if set(_REGISTERED) != set(ORDER):
    raise ImportError("experiments registered %s, expected %s"
                      % (sorted(_REGISTERED), sorted(ORDER)))
EXPERIMENTS = {n: _REGISTERED[n] for n in ORDER}
