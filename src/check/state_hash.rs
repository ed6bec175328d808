//! A state's identity without its JSON: the values its `Serialize` hands
//! a serializer, written as compact bytes (numbers in seven-bit groups, no
//! text formatted or escaped) and hashed by two SipHash-1-3 passes (one salted)
//! for 128 bits. Two values of one type hash alike exactly when they
//! serialise alike, as when their JSON texts were hashed. Every value is
//! written with a tag of its shape and every sequence, map and string
//! with its length, so no two different serialisations write the same bytes.

use std::hash::{DefaultHasher, Hasher};

use serde::Serialize;
use serde::ser;

/// The 128-bit identity of `value` (see the module docs).
pub fn hash128<T: Serialize + ?Sized>(value: &T) -> u128 {
    thread_local! {
        static BYTES: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    // the buffer is taken out while the value serialises (a `Serialize`
    // may hash a value of its own) and put back for the next call
    let mut feed = Feed(BYTES.take());
    feed.0.clear();
    // a value that cannot be serialised hashes what it fed so far: the
    // contract's JSON round trip reports such a state on its own
    let _ = value.serialize(&mut feed);
    let (mut a, mut b) = (DefaultHasher::new(), DefaultHasher::new());
    a.write(&feed.0);
    b.write_u8(0xa5);
    b.write(&feed.0);
    BYTES.set(feed.0);
    (u128::from(a.finish()) << 64) | u128::from(b.finish())
}

/// The bytes hashed, in a scratch buffer kept per thread: hashing them in
/// one pass is far faster than feeding a hasher value by value.
struct Feed(Vec<u8>);

impl Feed {
    fn tag(&mut self, t: u8) {
        self.0.push(t);
    }
    /// `n` in seven-bit groups, low first (most of a state's numbers fit
    /// in one byte): the fewer bytes, the less to hash.
    fn u64(&mut self, mut n: u64) {
        while n >= 0x80 {
            self.0.push((n as u8) | 0x80);
            n >>= 7;
        }
        self.0.push(n as u8);
    }
    fn bytes(&mut self, t: u8, bytes: &[u8]) {
        self.tag(t);
        self.u64(bytes.len() as u64);
        self.0.extend_from_slice(bytes);
    }
    /// A compound value's start: its tag and, where known, its length
    /// (an unknown one is closed by `END`).
    fn open(&mut self, t: u8, len: Option<usize>) {
        self.tag(t);
        self.u64(len.map_or(u64::MAX, |n| n as u64));
    }
}

/// Why hashing stopped: a value's `Serialize` failed.
#[derive(Debug)]
pub struct Unhashable;

impl std::fmt::Display for Unhashable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the value could not be serialised")
    }
}

impl std::error::Error for Unhashable {}

impl ser::Error for Unhashable {
    fn custom<M: std::fmt::Display>(_: M) -> Unhashable {
        Unhashable
    }
}

const END: u8 = 0xff;

/// Scalars: a tag and the value's bytes.
macro_rules! scalars {
    ($($method:ident($ty:ty) => $tag:literal),* $(,)?) => {
        $(fn $method(self, v: $ty) -> Result<(), Unhashable> {
            self.tag($tag);
            self.u64(v as u64);
            Ok(())
        })*
    };
}

impl ser::Serializer for &mut Feed {
    type Ok = ();
    type Error = Unhashable;
    type SerializeSeq = Self;
    type SerializeTuple = Self;
    type SerializeTupleStruct = Self;
    type SerializeTupleVariant = Self;
    type SerializeMap = Self;
    type SerializeStruct = Self;
    type SerializeStructVariant = Self;

    scalars! {
        serialize_bool(bool) => 1, serialize_i8(i8) => 2, serialize_i16(i16) => 2, serialize_i32(i32) => 2,
        serialize_i64(i64) => 2, serialize_u8(u8) => 3, serialize_u16(u16) => 3, serialize_u32(u32) => 3,
        serialize_u64(u64) => 3, serialize_char(char) => 4,
    }
    fn serialize_i128(self, v: i128) -> Result<(), Unhashable> {
        self.bytes(5, &v.to_le_bytes());
        Ok(())
    }
    fn serialize_u128(self, v: u128) -> Result<(), Unhashable> {
        self.bytes(5, &v.to_le_bytes());
        Ok(())
    }
    fn serialize_f32(self, v: f32) -> Result<(), Unhashable> {
        self.serialize_f64(f64::from(v))
    }
    fn serialize_f64(self, v: f64) -> Result<(), Unhashable> {
        self.tag(6);
        self.u64(v.to_bits());
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Result<(), Unhashable> {
        self.bytes(7, v.as_bytes());
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<(), Unhashable> {
        self.bytes(8, v);
        Ok(())
    }
    fn serialize_none(self) -> Result<(), Unhashable> {
        self.tag(9);
        Ok(())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result<(), Unhashable> {
        self.tag(10);
        v.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Unhashable> {
        self.tag(11);
        Ok(())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Unhashable> {
        self.serialize_unit()
    }
    fn serialize_unit_variant(self, _: &'static str, i: u32, _: &'static str) -> Result<(), Unhashable> {
        self.tag(12);
        self.u64(u64::from(i));
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, v: &T) -> Result<(), Unhashable> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        i: u32,
        _: &'static str,
        v: &T,
    ) -> Result<(), Unhashable> {
        self.tag(13);
        self.u64(u64::from(i));
        v.serialize(self)
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Self, Unhashable> {
        self.open(14, len);
        Ok(self)
    }
    fn serialize_tuple(self, len: usize) -> Result<Self, Unhashable> {
        self.open(14, Some(len));
        Ok(self)
    }
    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<Self, Unhashable> {
        self.open(14, Some(len));
        Ok(self)
    }
    fn serialize_tuple_variant(self, _: &'static str, i: u32, _: &'static str, len: usize) -> Result<Self, Unhashable> {
        self.tag(15);
        self.u64(u64::from(i));
        self.open(14, Some(len));
        Ok(self)
    }
    fn serialize_map(self, len: Option<usize>) -> Result<Self, Unhashable> {
        self.open(16, len);
        Ok(self)
    }
    fn serialize_struct(self, _: &'static str, len: usize) -> Result<Self, Unhashable> {
        self.open(17, Some(len));
        Ok(self)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        i: u32,
        _: &'static str,
        len: usize,
    ) -> Result<Self, Unhashable> {
        self.tag(15);
        self.u64(u64::from(i));
        self.open(17, Some(len));
        Ok(self)
    }
}

/// The compound serializers: each element in turn, then `END`.
macro_rules! compound {
    ($($trait:ident :: $method:ident),* $(,)?) => {
        $(impl ser::$trait for &mut Feed {
            type Ok = ();
            type Error = Unhashable;
            fn $method<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Unhashable> {
                v.serialize(&mut **self)
            }
            fn end(self) -> Result<(), Unhashable> {
                self.tag(END);
                Ok(())
            }
        })*
    };
}

compound!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field,
);

impl ser::SerializeMap for &mut Feed {
    type Ok = ();
    type Error = Unhashable;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, k: &T) -> Result<(), Unhashable> {
        k.serialize(&mut **self)
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Unhashable> {
        v.serialize(&mut **self)
    }
    fn end(self) -> Result<(), Unhashable> {
        self.tag(END);
        Ok(())
    }
}

/// A struct's fields by name (a skipped field leaves a gap the names show).
macro_rules! fields {
    ($($trait:ident),* $(,)?) => {
        $(impl ser::$trait for &mut Feed {
            type Ok = ();
            type Error = Unhashable;
            fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, v: &T) -> Result<(), Unhashable> {
                self.bytes(18, key.as_bytes());
                v.serialize(&mut **self)
            }
            fn end(self) -> Result<(), Unhashable> {
                self.tag(END);
                Ok(())
            }
        })*
    };
}

fields!(SerializeStruct, SerializeStructVariant);

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[derive(Serialize)]
    enum Shape {
        Unit,
        One(u8),
        Pair(u8, u8),
        Named { a: u8, b: Vec<u8> },
    }

    #[test]
    fn values_that_serialise_apart_hash_apart_and_alike_alike() {
        let shapes = [
            hash128(&Shape::Unit),
            hash128(&Shape::One(1)),
            hash128(&Shape::Pair(1, 0)),
            hash128(&Shape::Named { a: 1, b: vec![] }),
            hash128(&Shape::Named { a: 0, b: vec![1] }),
            hash128(&(vec![1u8, 2], vec![3u8])),
            hash128(&(vec![1u8], vec![2u8, 3])),
            hash128(&"ab"),
            hash128(&("a", "b")),
            hash128(&Some(0u8)),
            hash128(&None::<u8>),
            hash128(&0u8),
        ];
        for (i, x) in shapes.iter().enumerate() {
            assert!(shapes[i + 1..].iter().all(|y| y != x), "shape {i} collides");
        }
        let ab: BTreeMap<&str, u8> = [("a", 1), ("b", 2)].into_iter().collect();
        let ba: BTreeMap<&str, u8> = [("b", 2), ("a", 1)].into_iter().collect();
        assert_eq!(hash128(&ab), hash128(&ba));
        assert_eq!(hash128(&Shape::Named { a: 1, b: vec![2] }), hash128(&Shape::Named { a: 1, b: vec![2] }));
    }
}
