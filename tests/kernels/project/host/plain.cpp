// An ordinary shared library / object file with no kernels: a bad input for
// aclrtBinaryLoadFromFile.
extern "C" int kt_plain_function(int x)
{
    return x * 3 + 1;
}
