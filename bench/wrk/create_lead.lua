-- wrk script: POST /leads with a new visitor name and e-mail per request (run tag, thread, counter),
-- so every request is a real insert. Usage: wrk ... -s create_lead.lua URL -- RUN_TAG
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "numbered_threads.lua")

post_unique(function(run, tid, n)
  return string.format(
    '{"visitor_name":"Bench Lead %s-%d-%d","visitor_email":"lead.%s.%d.%d@bench.example.net",' ..
    '"visitor_company":"Benchmark Inc","pipeline_stage":"new","need_summary":"created by wrk",' ..
    '"tags":["bench"],"source":"bench","expected_billing_amount":%d}',
    run, tid, n, run, tid, n, 100 + n % 5000)
end)
