//! Any `Authorization` and `Cookie` header through the code every request
//! meets: a caller or a 401, never a panic; and no forged token passes.

#![no_main]

use actix_web::{
    FromRequest,
    dev::Payload,
    http::header::{AUTHORIZATION, COOKIE, HeaderValue},
    test::TestRequest,
    web,
};
use libfuzzer_sys::fuzz_target;
use wm_http::auth::{AccessTokens, Caller};

const KEY: &[u8] = b"fuzz-key-fuzz-key-fuzz-key-fuzz-key";

fuzz_target!(|data: &[u8]| {
    let (authorization, cookie) = match data.iter().position(|b| *b == b'\n') {
        Some(at) => (&data[..at], &data[at + 1..]),
        None => (data, &[][..]),
    };
    let tokens = AccessTokens::new(KEY, Default::default()).expect("a valid key");
    let mut request = TestRequest::default().app_data(web::Data::new(tokens));
    if let Ok(value) = HeaderValue::from_bytes(authorization) {
        request = request.insert_header((AUTHORIZATION, value));
    }
    if let Ok(value) = HeaderValue::from_bytes(cookie) {
        request = request.insert_header((COOKIE, value));
    }
    let request = request.to_http_request();
    match Caller::from_request(&request, &mut Payload::None).into_inner() {
        // Only a token signed with KEY could pass, and the fuzzer has none.
        Ok(caller) => panic!("a forged header was accepted: {caller:?}"),
        Err(error) => assert_eq!(error.status.as_u16(), 401, "{error:?}"),
    }
    let _ = request.cookie("wmeter_rt").map(|c| c.value().len());
});
