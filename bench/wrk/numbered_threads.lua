-- Shared by the write scripts (loaded with dofile): numbers wrk's threads, so each thread writes
-- values no other thread does (global `tid` in init and request), and sends JSON bodies.
local threads = 0

function setup(thread)
  threads = threads + 1
  thread:set("tid", threads)
end

function send_json(method)
  wrk.method = method
  wrk.headers["Content-Type"] = "application/json"
end

-- The script POSTs a new record per request: make_body(run, tid, n) gives the JSON of the n-th
-- request of thread tid, RUN_TAG (wrk's first script argument) keeping runs apart.
function post_unique(make_body)
  function init(args)
    run = args[1] or "run"
    counter = 0
    send_json("POST")
  end

  function request()
    counter = counter + 1
    return wrk.format(nil, nil, nil, make_body(run, tid, counter))
  end
end
