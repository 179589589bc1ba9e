<?php

namespace App;

/** A repo. */
class Repo
{
    public function find($id)
    {
        return $id;
    }

    public function all()
    {
        return [];
    }
}

function helper()
{
    return 1;
}
