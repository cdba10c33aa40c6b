-- D174: a write run as one statement outside a transaction (a message append) counts itself and
-- changes its rows in that statement; when it finds it cannot write (the dialogue refuses), it
-- aborts itself through this function, so that nothing it counted or changed is committed.
CREATE FUNCTION parley_abort_unless(written boolean) RETURNS boolean
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  IF written IS NOT TRUE THEN
    RAISE EXCEPTION 'standalone write refused: its transaction names why' USING ERRCODE = 'PW001';
  END IF;
  RETURN true;
END
$$;
