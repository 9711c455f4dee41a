"""Storage profiles (--device: IoThrottle, the kernel's block I/O
throttle on the server's disk) and the buffer pool in the paper's
proportion (--pool-pct)."""

import os
import time

from .paths import PORT
from .util import die, log


# ---------------------------------------------------------------------------
# Storage profiles (--device)

# The limits IoThrottle puts on the server's reads and writes to the disk
# of its data directory during the measured runs of each profile (warm-up
# and measurement). Operations per second (riops, wiops) and bytes per
# second (rbps, wbps; MB = 10^6 bytes, as the vendors count); None: not
# throttled. The paper's Tables 2 and 3 (the sequential and random
# bandwidths of Lee's SSD and HDD) were not available to us, so the values
# are derived from vendor figures of drives of the kind it names, for
# InnoDB's pattern with the paper's 20 connections: 16 KB pages read one at
# a time by each waiting thread (O_DIRECT), so a few requests in flight,
# not the queue depth of 32 of the data sheets.
DEVICE_PROFILES = {
    # This machine's own disk, unthrottled (about 11,000 random page reads
    # per second, docs/benchmarks/paper.md 1b).
    "native": None,
    # A 2012 SATA SSD. Vendor figures of the Intel 520 (240 GB, 2012):
    # 50,000 random 4 KB read and 80,000 write IOPS at queue depth 32,
    # 550 MB/s sequential read and 520 MB/s write. At low queue depth a
    # SATA SSD of that generation completes a random read in roughly
    # 100-200 us (a few thousand to 10,000 per second with a few requests
    # in flight): 8,000 reads/s. Writes at low queue depth, on a drive
    # kept full by a database (garbage collection), sustain less: 5,000.
    # Bandwidth: about half the sequential figures, what 16 KB transfers
    # reach (250 MB/s read, 200 MB/s write). Derived, not measured; the
    # read rate is below but near this machine's own disk.
    "ssd2012": {"riops": 8000, "wiops": 5000,
                "rbps": 250 * 10**6, "wbps": 200 * 10**6},
    # A 7,200 rpm disk. Seagate Barracuda 7200.14 (2012): 8.5 ms average
    # access (about 118 random accesses per second; a few requests queued
    # by NCQ shorten the seeks: 150, the usual figure for 7,200 rpm), up
    # to 210 MB/s sustained on the outer tracks, 156 MB/s on average: 150
    # MB/s. A disk shares its 150 operations between reads and writes; the
    # kernel's throttle limits each direction on its own, so a mixed load
    # can get up to 300: the profile flatters the disk under writes.
    "hdd": {"riops": 150, "wiops": 150,
            "rbps": 150 * 10**6, "wbps": 150 * 10**6},
}


def device_list(spec):
    """--device: the storage profiles of a run, in order."""
    devs = [d for d in (spec or "native").split(",") if d]
    unknown = [d for d in devs if d not in DEVICE_PROFILES]
    if unknown:
        die("--device: no profile %s (profiles: %s)" % (
            ", ".join(unknown), ", ".join(DEVICE_PROFILES)))
    return list(dict.fromkeys(devs))


def usable_devices(devs, path):
    """The profiles that can run here: native always, a throttled one only
    where IoThrottle can write a cgroup; the others are logged and
    returned as skipped (the report says so)."""
    ok, skipped = [], []
    for d in devs:
        if DEVICE_PROFILES[d] is None or IoThrottle(path, DEVICE_PROFILES[d]).available():
            ok.append(d)
        else:
            log("--device %s: no writable blkio (cgroup v1) or io (cgroup v2) "
                "controller for the disk of %s here: profile skipped" % (d, path))
            skipped.append(d)
    return ok, skipped


class IoThrottle:
    """A slower disk for one process: the kernel's block I/O throttle limits
    the reads and writes per second and the bytes per second the process
    may issue to the disk that holds a path (cgroup v1
    blkio.throttle.{read,write}_{iops,bps}_device, or v2 io.max riops,
    wiops, rbps, wbps), as given by a profile (DEVICE_PROFILES; a key left
    out is not limited). InnoDB reads and writes its data files with
    O_DIRECT, so every page read and write counts. Writes the kernel's
    flusher threads make for the process (the redo log, written through the
    page cache with innodb_flush_log_at_trx_commit=2) escape cgroup v1's
    throttle; those the server's own threads make, fsync included, do not.
    available() is False where neither interface can be written, or the
    path is on no block device (then the profile is skipped, and the
    report says so)."""

    V1 = "/sys/fs/cgroup/blkio"
    V2 = "/sys/fs/cgroup"
    KEYS = ("riops", "wiops", "rbps", "wbps")
    V1_FILES = {"riops": "blkio.throttle.read_iops_device",
                "wiops": "blkio.throttle.write_iops_device",
                "rbps": "blkio.throttle.read_bps_device",
                "wbps": "blkio.throttle.write_bps_device"}

    def __init__(self, path, profile):
        self.profile = dict(profile or {})
        self.dev = self.disk_of(path)
        self.dir = None
        self.home = None

    @staticmethod
    def disk_of(path):
        st = os.stat(path)
        dev = "%d:%d" % (os.major(st.st_dev), os.minor(st.st_dev))
        sysdev = "/sys/dev/block/" + dev
        # Throttling applies to whole disks: a partition's parent.
        if os.path.exists(os.path.join(sysdev, "partition")):
            dev = open(os.path.join(os.path.realpath(sysdev), "..", "dev")
                       ).read().strip()
        return dev

    @classmethod
    def v1(cls):
        return os.access(os.path.join(cls.V1, "tasks"), os.W_OK)

    def available(self):
        if not os.path.exists("/sys/dev/block/" + self.dev):
            return False
        if self.v1():
            return True
        c = os.path.join(self.V2, "cgroup.controllers")
        return (os.path.exists(c) and "io" in open(c).read().split() and
                os.access(os.path.join(self.V2, "cgroup.subtree_control"),
                          os.W_OK))

    def group_name(self):
        # One group per run (port), so that two runs do not share limits.
        return "compress_bench_%d" % PORT

    @staticmethod
    def cgroup_of(pid, v1):
        """The process's group (v1: of the blkio hierarchy), to go back to."""
        for line in open("/proc/%d/cgroup" % pid):
            _, ctl, path = line.rstrip("\n").split(":", 2)
            if (v1 and "blkio" in ctl.split(",")) or (not v1 and ctl == ""):
                return path
        return "/"

    def attach(self, pid):
        p = self.profile
        if self.v1():
            self.home = os.path.join(self.V1, self.cgroup_of(pid, True).lstrip("/"))
            self.dir = os.path.join(self.V1, self.group_name())
            os.makedirs(self.dir, exist_ok=True)
            # Every key written: 0 removes a limit a previous profile left.
            for k in self.KEYS:
                with open(os.path.join(self.dir, self.V1_FILES[k]), "w") as f:
                    f.write("%s %d\n" % (self.dev, p.get(k) or 0))
        else:
            self.home = os.path.join(self.V2, self.cgroup_of(pid, False).lstrip("/"))
            with open(os.path.join(self.V2, "cgroup.subtree_control"), "w") as f:
                f.write("+io\n")
            self.dir = os.path.join(self.V2, self.group_name())
            os.makedirs(self.dir, exist_ok=True)
            with open(os.path.join(self.dir, "io.max"), "w") as f:
                f.write("%s %s\n" % (self.dev, " ".join(
                    "%s=%s" % (k, p[k] if p.get(k) else "max")
                    for k in self.KEYS)))
        with open(os.path.join(self.dir, "cgroup.procs"), "w") as f:
            f.write("%d\n" % pid)

    def release(self, pid):
        """Move the process back to its own group: what it does next (its
        shutdown's flush, a consistency check) runs on the real disk."""
        if not self.dir or not self.home:
            return
        try:
            with open(os.path.join(self.home, "cgroup.procs"), "w") as f:
                f.write("%d\n" % pid)
        except OSError as e:
            log("could not move mysqld %d out of the throttled group: %s"
                % (pid, e))

    def detach(self):
        """After the process has left the group or exited: remove it."""
        if self.dir:
            for _ in range(20):
                try:
                    os.rmdir(self.dir)
                    break
                except OSError:
                    time.sleep(0.5)
            self.dir = None


# ---------------------------------------------------------------------------
# Buffer pool in the paper's proportion (--pool-pct)

POOL_MIN = 16 * 2**20
POOL_ROUND = 8 * 2**20


def pool_for_pct(pct, n_bytes):
    """--pool-pct P: the measured runs' innodb_buffer_pool_size, P % of the
    uncompressed layout's loaded size (n_bytes, DATA_LENGTH + INDEX_LENGTH
    of its tables), at least POOL_MIN, rounded up to POOL_ROUND. The paper
    ran a 2 GB pool over about 100 GB of data (1,000 warehouses): about
    2 %. We scale the pool, not the warehouses."""
    b = max(POOL_MIN, n_bytes * pct / 100.0)
    return int(-(-b // POOL_ROUND)) * POOL_ROUND


def pool_option(nbytes):
    """innodb_buffer_pool_size as the option files write it ("24M")."""
    return "%dM" % (nbytes // 2**20)


def profile_text(dev):
    """A storage profile's limits in words."""
    p = DEVICE_PROFILES.get(dev)
    if not p:
        return "this machine's disk, unthrottled"
    return "%d read / %d write IOPS, %.0f / %.0f MB/s" % (
        p["riops"], p["wiops"], p["rbps"] / 1e6, p["wbps"] / 1e6)
