-- Random point reads by primary key over the first --range ids of the wiki
-- table (bench/wiki/make_corpus.py; docs/benchmarks/wikipedia.md section 5), uniformly
-- distributed, each reading the whole row (title and body), as a page view
-- of an article does.
--   sysbench pointread.lua --mysql-db=wiki --range=20000 --time=20 run
-- Every event is one SELECT in autocommit; sysbench reports events/s.

sysbench.cmdline.options = {
  range = {"Read ids 1..range", 1000},
  table = {"Table to read", "wiki"},
}

local con, stmt, param

function thread_init()
  local drv = sysbench.sql.driver()
  con = drv:connect()
  stmt = con:prepare(string.format(
    "SELECT id, title, body FROM %s WHERE id = ?", sysbench.opt.table))
  param = stmt:bind_create(sysbench.sql.type.INT)
  stmt:bind_param(param)
end

function event()
  param:set(sysbench.rand.uniform(1, sysbench.opt.range))
  stmt:execute()
end

function thread_done()
  stmt:close()
  con:disconnect()
end
