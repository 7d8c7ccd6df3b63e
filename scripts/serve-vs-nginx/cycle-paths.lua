-- wrk script: every connection cycles through the request paths listed in a file, one per line.
--
--   wrk -t2 -c64 -d20s -s cycle-paths.lua http://127.0.0.1:8080 -- paths.txt
--
-- Each thread pre-formats its requests once (so Lua costs the same for both servers) and starts
-- 61 paths further on than the previous thread, so threads do not ask for the same photo at once.
local threads = 0

function setup(thread)
    thread:set("id", threads)
    threads = threads + 1
end

local requests = {}
local count = 0
local next_index = 1

function init(args)
    local file = assert(io.open(args[1], "r"), "cannot read the paths file " .. tostring(args[1]))
    for line in file:lines() do
        if line ~= "" then
            count = count + 1
            requests[count] = wrk.format("GET", line)
        end
    end
    file:close()
    assert(count > 0, "the paths file " .. args[1] .. " lists no path")
    local offset = (tonumber(id) or 0) * 61
    next_index = (offset % count) + 1
end

function request()
    local formatted = requests[next_index]
    next_index = next_index % count + 1
    return formatted
end
