-- wrk: each connection (one per thread) drives a session of its own through logIn and back,
-- always naming the top screen the last answer showed, as a client does. Sessions come from
-- SESSIONS_FILE ("id token top ..." a line). A 409 adopts the State it carries.
local threads, counter = {}, 0

function setup(thread)
  counter = counter + 1
  thread:set("index", counter)
  table.insert(threads, thread)
end

function init(args)
  local lines = {}
  for line in io.lines(os.getenv("SESSIONS_FILE")) do lines[#lines + 1] = line end
  session, token, top = lines[index]:match("^(%S+) (%S+) (%S+)")
  nextEvent, refused = "logIn", 0
end

function request()
  return wrk.format("POST", "/v1/sessions/" .. session .. "/events",
    { ["Authorization"] = "Bearer " .. token, ["Content-Type"] = "application/json" },
    '{"screen":"' .. top .. '","event":"' .. nextEvent .. '"}')
end

function response(status, headers, body)
  top = body:match('"top":"([^"]+)"') or top
  if status ~= 200 then
    refused = refused + 1
    nextEvent = top == "s1" and "logIn" or "back"
    return
  end
  nextEvent = nextEvent == "logIn" and "back" or "logIn"
end

function done(summary, latency, requests)
  local total = 0
  for _, thread in ipairs(threads) do total = total + (thread:get("refused") or 0) end
  io.write(string.format("refused %d p50_us %d p99_us %d\n", total, latency:percentile(50), latency:percentile(99)))
end
