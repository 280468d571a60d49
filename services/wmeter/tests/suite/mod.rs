//! The HTTP API suite: every test here reaches the application only through
//! its HTTP API, so the same tests run against the embedded application
//! (`tests/api`, one fresh app per test and database backend) and against
//! the distributed gateway (`tests/topology`, one deployment shared by all
//! of them, each test in its own block of device identifiers).
//!
//! Tests that arrange state through the database, the clock or the event
//! log, or that read the log back, stay in `tests/api`.

#![allow(dead_code)] // each test binary uses its own part of the helpers

pub mod admin;
pub mod api_keys;
pub mod attacks;
pub mod audit;
pub mod bad_input;
pub mod devices_csv;
pub mod docs;
pub mod edits;
pub mod gateway_credentials;
pub mod registration;
pub mod routes;
pub mod search;
pub mod sessions;
pub mod tokens;

pub use wm_test_support::{devices::*, eventually, target};

/// Calls `$callback!` with every suite test, as `module::test`.
macro_rules! suite_tests {
    ($callback:ident) => {
        $callback! {
            registration::a_registered_gateway_reads_back_in_the_spec_shape,
            registration::a_registered_meter_reads_back_in_the_spec_shape,
            registration::every_gateway_field_gets_the_spec_message,
            registration::every_meter_field_gets_the_spec_message,
            registration::uniqueness_is_checked_on_blur_and_again_on_submit,
            registration::two_concurrent_registrations_of_one_serial_give_one_201_and_one_409,
            registration::a_viewer_may_read_but_not_register,
            edits::a_gateway_s_phone_and_position_change,
            edits::a_meter_moves,
            bad_input::bad_paths_and_queries_get_400,
            bad_input::bad_bodies_get_400_and_huge_ones_413,
            search::text_search_finds_names_and_identifiers,
            search::search_follows_edits_and_deletions,
            search::radius_adds_the_devices_around_each_match,
            search::a_device_holding_a_term_s_pieces_apart_is_not_a_match,
            search::a_whole_serial_comes_first_among_more_than_a_page_of_substring_matches,
            sessions::login_refresh_logout_then_the_session_is_dead,
            sessions::replaying_a_rotated_refresh_token_kills_the_family,
            sessions::refresh_needs_the_custom_header_and_a_cookie,
            sessions::failures_look_alike_whoever_the_user_is,
            tokens::every_bad_access_token_gets_a_json_401,
            routes::api_routes_need_an_access_token,
            routes::unknown_api_route_is_a_json_404,
            routes::a_route_asked_with_a_method_it_does_not_take_is_a_405,
            docs::the_document_is_public_and_lists_every_spec_route,
            docs::every_described_route_exists,
            docs::every_described_route_needs_a_token,
            audit::every_device_change_and_refusal_is_audited,
            audit::user_changes_are_audited,
            audit::only_admins_read_the_trail_page_by_page,
            audit::the_trail_is_filtered_and_exported_as_csv,
            attacks::cross_origin_simple_posts_are_refused,
            attacks::a_foreign_preflight_gets_no_cors_grant,
            attacks::a_disabled_account_loses_refresh_at_once,
            admin::an_admin_creates_a_user_who_must_change_the_one_time_password,
            admin::a_role_change_a_disable_and_a_revocation_take_effect_on_the_next_request,
            admin::only_admins_administer_users,
            admin::a_user_keeps_their_language_and_theme,
            devices_csv::a_dry_run_reports_every_row_s_problems_with_the_form_s_messages,
            devices_csv::applying_registers_the_valid_rows_once_and_an_export_imports_again,
            devices_csv::malformed_files_get_a_clear_error,
            api_keys::a_key_works_like_a_token_of_its_role_until_it_is_revoked,
            api_keys::a_key_shows_when_and_where_it_was_last_used,
            api_keys::a_key_is_refused_once_it_expires,
            api_keys::an_admin_key_administers_but_has_no_account,
            api_keys::only_admins_make_keys_and_bad_ones_say_why,
            gateway_credentials::a_secret_is_shown_once_and_a_rotation_revokes_the_last_one,
            gateway_credentials::only_operators_and_admins_handle_credentials_and_bad_requests_say_why,
        }
    };
}
pub(crate) use suite_tests;
