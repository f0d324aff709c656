-- read: an ID's time and fields, its forms, and key ranges, for IDs made
-- elsewhere (the formats' documented examples).
SET timezone = 'UTC';

-- Discord's documented example
SELECT idscheme_time('snowflake', 175928847299117063::bigint);
SELECT idscheme_time('discord', '175928847299117063');
SELECT idscheme_fields('snowflake', 175928847299117063::bigint);
-- Twitter's, a UUIDv7 (RFC 9562's example), a ULID, an ObjectId, a KSUID
SELECT idscheme_time('twitter', 1050118621198921728);
SELECT idscheme_time('uuidv7', '017f22e2-79b0-7cc3-98c4-dc0c0c07398f'::uuid);
SELECT idscheme_fields('uuidv7', '017f22e2-79b0-7cc3-98c4-dc0c0c07398f'::uuid);
SELECT idscheme_time('ulid', '01ARZ3NDEKTSV4RRFFQ69G5FAV');
SELECT idscheme_time('objectid', '507f1f77bcf86cd799439011');
SELECT idscheme_fields('objectid', '507f1f77bcf86cd799439011');
SELECT idscheme_time('ksuid', '0ujtsYcgvSTl8PAuAdqWYSMnLOv');
-- UUIDv1's 100 ns ticks since 1582 (RFC 9562's example), to the us
SELECT idscheme_time('uuidv1', 'c232ab00-9414-11ec-b3c8-9f6bdeced846'::uuid);
-- no time: NULL
SELECT idscheme_time('uuidv4', '919108f7-52d1-4320-9bac-f847db4148a8'::uuid)
       IS NULL AS v4_has_no_time;
SELECT idscheme_fields('uuidv4', '919108f7-52d1-4320-9bac-f847db4148a8'::uuid);
-- SIQ's type by name
SELECT idscheme_fields('siq', idscheme_next('siq')) ->> 'qualifier' AS siq_qualifier;

-- forms: text in every encoding, bigint and uuid, and back
SELECT idscheme_convert('snowflake', '175928847299117063', 'hex');
SELECT idscheme_convert('snowflake', '271065ac1020007', 'dec', 'hex');
SELECT idscheme_bigint('snowflake', '271065ac1020007', 'hex');
SELECT idscheme_text('snowflake', 175928847299117063, 'b64');
SELECT idscheme_uuid('ulid', '01ARZ3NDEKTSV4RRFFQ69G5FAV');
SELECT idscheme_text('ulid', '01563e3a-b5d3-d676-4c61-efb99302bd5b'::uuid);
SELECT idscheme_uuid('typeid', 'user_01h455vb4pex5vsknk084sn02q');
SELECT idscheme_text('uuidv7', idscheme_uuid('uuidv7', '017F22E2-79B0-7CC3-98C4-DC0C0C07398F'));
SELECT idscheme_convert('uuidv7', '  017f22e2-79b0-7cc3-98c4-dc0c0c07398f  ', 'uuid')
       AS trimmed;

-- key ranges: the IDs made between two instants are BETWEEN lo AND hi
SELECT idscheme_lo_bigint('snowflake', '2016-04-30 11:18:25.796+00'),
       idscheme_hi_bigint('snowflake', '2016-04-30 11:18:25.796+00');
SELECT 175928847299117063 BETWEEN
         idscheme_lo_bigint('snowflake', '2016-04-30 11:18:25.796+00')
     AND idscheme_hi_bigint('snowflake', '2016-04-30 11:18:25.796+00')
       AS in_its_ms,
       175928847299117063 < idscheme_lo_bigint('snowflake',
                                               '2016-04-30 11:18:25.797+00')
       AS below_the_next;
SELECT idscheme_lo_uuid('uuidv7', '2022-02-22 19:22:22+00'),
       idscheme_hi_uuid('uuidv7', '2022-02-22 19:22:22+00');
SELECT idscheme_lo_bigint('snowflake', '-infinity'),
       idscheme_hi_bigint('snowflake', 'infinity');
CREATE TEMP TABLE k (id bigint PRIMARY KEY);
INSERT INTO k SELECT idscheme_next_bigint('snowflake')
              FROM generate_series(1, 1000);
SELECT count(*) = 1000 AS all_in_now
FROM k WHERE id BETWEEN idscheme_lo_bigint('snowflake', now() - '1 hour'::interval)
                    AND idscheme_hi_bigint('snowflake', now() + '1 hour'::interval);
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT * FROM k
WHERE id BETWEEN idscheme_lo_bigint('snowflake', now() - '1 day'::interval)
             AND idscheme_hi_bigint('snowflake', now());
RESET enable_seqscan;

-- refusals: each names the scheme and quotes the input
SELECT idscheme_time('snowflake', 'hello');
SELECT idscheme_time('snowflake', '');
SELECT idscheme_time('snowflake', '99999999999999999999999');
SELECT idscheme_time('snowflake', -1::bigint);
SELECT idscheme_time('sonyflake', 9223372036854775807);
SELECT idscheme_time('uuidv7', '919108f7-52d1-4320-9bac-f847db4148a8');
SELECT idscheme_time('ulid', 'user_01h455vb4pex5vsknk084sn02q', 'nosuch');
SELECT idscheme_fields('objectid', 175928847299117063::bigint);
SELECT idscheme_fields('ulid', 175928847299117063::bigint);
SELECT idscheme_text('snowflake', '017f22e2-79b0-7cc3-98c4-dc0c0c07398f'::uuid);
SELECT idscheme_convert('typeid', 'user_01h455vb4pex5vsknk084sn02q', 'dec');
SELECT idscheme_bigint('uuidv7', '017f22e2-79b0-7cc3-98c4-dc0c0c07398f');
SELECT idscheme_lo_uuid('uuidv1', now());
SELECT idscheme_lo_uuid('uuidv4', now());
SELECT idscheme_lo_bigint('uuidv7', now());
SELECT idscheme_hi_bigint('snowflake', '2000-01-01+00');
SELECT idscheme_lo_uuid('snowflake', now());
SELECT idscheme_time('siq', 'ffffffffffffffffffffffffffff');
