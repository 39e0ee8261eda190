-- wrk script: create_lead.lua's POST /leads, each request with its own Idempotency-Key
-- "RUN_TAG-THREAD-N" (the numbers of its body), so every request is a key's first use.
-- Usage: wrk ... -s create_lead_idempotent.lua URL -- RUN_TAG (make it random per run).
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "create_lead.lua")

local post = request

function request()
  -- post() counts this request as counter + 1 and formats it with wrk.headers as they are now.
  wrk.headers["Idempotency-Key"] = string.format("%s-%d-%d", run, tid, counter + 1)
  return post()
end
