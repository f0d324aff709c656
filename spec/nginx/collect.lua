-- wrk script: write every response body (one ID and a newline) to stdout,
-- and mark any other status, so the checker can count and compare them.
-- WRK_DELAY_MS paces each connection (that many ms between requests).
response = function (status, headers, body)
  if status == 200 then
    io.write(body)
  else
    io.write("STATUS-" .. status .. "\n")
  end
end

local pace = tonumber(os.getenv("WRK_DELAY_MS") or "")
if pace then delay = function () return pace end end
