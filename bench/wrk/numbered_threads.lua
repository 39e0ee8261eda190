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
