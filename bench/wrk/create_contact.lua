-- wrk script: POST /contacts with a unique e-mail per request (run tag, thread, counter), so the
-- e-mail de-duplication never answers 409. Usage: wrk ... -s create_contact.lua URL -- RUN_TAG
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "numbered_threads.lua")

post_unique(function(run, tid, n)
  return string.format(
    '{"first_name":"Bench","last_name":"Contact %d-%d","email":"contact.%s.%d.%d@bench.example.net",' ..
    '"phone":"+1 555 0100","company_name":"Benchmark Inc","tags":["bench"]}',
    tid, n, run, tid, n)
end)
