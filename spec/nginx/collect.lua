-- wrk script: write every response body (one ID and a newline) to stdout,
-- and mark any other status, so the checker can count and compare them.
response = function (status, headers, body)
  if status == 200 then
    io.write(body)
  else
    io.write("STATUS-" .. status .. "\n")
  end
end
