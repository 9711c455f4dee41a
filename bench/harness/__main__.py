"""`python3 -m harness` (bench/run.sh): the harness's command line."""

from .cli import main

main()
