-- inspect: which scheme wrote this text, with the engine's doubt.
SET timezone = 'UTC';
SELECT rank, scheme, encoding, "time", plausible, ambiguous
FROM idscheme_inspect('01ARZ3NDEKTSV4RRFFQ69G5FAV') WHERE rank <= 3;
SELECT rank, scheme, encoding, plausible, ambiguous, fields
FROM idscheme_inspect('919108f7-52d1-4320-9bac-f847db4148a8') WHERE rank = 1;
SELECT scheme, "time", ambiguous
FROM idscheme_inspect('507f1f77bcf86cd799439011') WHERE rank = 1;
-- a bare decimal that Discord and Twitter both read: ambiguous, both named
SELECT rank, scheme, "time", ambiguous
FROM idscheme_inspect('175928847299117063', 'discord,twitter');
SELECT scheme, ambiguous FROM idscheme_inspect('175928847299117063')
WHERE scheme IN ('snowflake', 'twitter') ORDER BY scheme;
-- an alias narrows to every scheme it names
SELECT rank, scheme FROM idscheme_inspect('017f22e2-79b0-7cc3-98c4-dc0c0c07398f',
                                          'uuid') WHERE rank = 1;
-- nanoid of another size: its characters alone, no value
SELECT scheme, fields IS NULL AS no_value
FROM idscheme_inspect('V1StGXR8_Z') WHERE rank = 1;
-- nothing reads it: no row
SELECT count(*) FROM idscheme_inspect('');
SELECT count(*) FROM idscheme_inspect('!!!');
SELECT count(*) FROM idscheme_inspect(NULL);
SELECT count(*) FROM idscheme_inspect('01ARZ3NDEKTSV4RRFFQ69G5FAV', 'snowflake');
SELECT * FROM idscheme_inspect('01ARZ3NDEKTSV4RRFFQ69G5FAV', 'nosuch,');

-- what the backend knows
SELECT name, bits, encodings[1] AS first, aliases, epoch, unit, defined
FROM idscheme_schemes() ORDER BY name;
