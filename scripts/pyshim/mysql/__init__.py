"""scripts/pyshim: mysql.connector's calls that upstream's innodb_stress
load generator makes, over PyMySQL (python3-pymysql), for Debian 12, which
does not package mysql.connector. Put scripts/pyshim on PYTHONPATH
(scripts/zipdebug-matrix.sh does for innodb_stress)."""
