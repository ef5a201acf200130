-- Cost of inserting fact rows into the 1M tables with the schema's fact indexes: 100,000
-- copied responses of the main workspace (new ids) with their mentions and citations,
-- staged in temp tables first so only the inserts are timed; rolled back.
\set ws '3ce84ff7-665a-5ca3-b0ac-b345ada1d07d'
begin;
create temp table ids on commit drop as select id as old_id, gen_random_uuid() as new_id from response where workspace_id = :'ws' and created_at >= '2026-06-01' order by created_at limit 100000;
create temp table r on commit drop as select (jsonb_populate_record(null::response, to_jsonb(x) || jsonb_build_object('id', ids.new_id, 'external_id', null))).* from response x join ids on x.workspace_id = :'ws' and x.id = ids.old_id;
create temp table m on commit drop as select (jsonb_populate_record(null::mention, to_jsonb(x) || jsonb_build_object('response_id', ids.new_id))).* from mention x join ids on x.workspace_id = :'ws' and x.response_id = ids.old_id;
create temp table c on commit drop as select (jsonb_populate_record(null::citation, to_jsonb(x) || jsonb_build_object('response_id', ids.new_id))).* from citation x join ids on x.workspace_id = :'ws' and x.response_id = ids.old_id;
insert into response select * from r;
\timing on
insert into mention select * from m;
insert into citation select * from c;
\timing off
rollback;
